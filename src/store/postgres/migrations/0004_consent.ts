// Consent flows: the same statements on both adapters (../../migrations/consent.ts).
export { up } from '../../migrations/consent.ts';
