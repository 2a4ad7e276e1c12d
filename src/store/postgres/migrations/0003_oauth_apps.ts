// OAuth apps: the same statements on both adapters (../../migrations/oauth-apps.ts).
export { up } from '../../migrations/oauth-apps.ts';
