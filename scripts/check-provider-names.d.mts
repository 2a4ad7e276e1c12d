/** Types of scripts/check-provider-names.mjs (plain JS, so `npm run lint` runs it with node alone). */
export function providerWords(root: string): string[];
export function namings(file: string, text: string, words: string[]): string[];
export function providerNamings(root: string): string[];
