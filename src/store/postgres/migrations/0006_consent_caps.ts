// Caps on open consent flows: the same statements on both adapters (../../migrations/consent-caps.ts).
export { up } from '../../migrations/consent-caps.ts';
