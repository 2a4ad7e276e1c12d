import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface MasterKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  /** Newest first; keys[0] encrypts, every key decrypts. */
  keys: MasterKey[];
  source: 'env' | 'file';
  file: string | null;
}

/** A key's id is derived from the key itself, so the same key always has the same id wherever it is configured. */
export function keyId(key: Buffer): string {
  return `k${createHash('sha256').update('ces-master-key-id\0').update(key).digest('hex').slice(0, 12)}`;
}

export function masterKey(key: Buffer): MasterKey {
  if (key.length !== 32) throw new Error('a master key must be 32 bytes');
  return { id: keyId(key), key };
}

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, 'master.key');
}

function readKeyFile(file: string): MasterKey[] {
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0) throw new Error(`${file} holds no key`);
  return lines.map((line, i) => {
    const key = Buffer.from(line, 'base64');
    if (key.length !== 32) throw new Error(`${file}: line ${i + 1} is not a base64 32-byte key`);
    return masterKey(key);
  });
}

export function writeKeyFile(file: string, keys: MasterKey[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const body = `# ces master keys, newest first. Losing this file makes stored credentials unreadable.\n${keys
    .map((k) => k.key.toString('base64'))
    .join('\n')}\n`;
  fs.writeFileSync(tmp, body, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * CES_MASTER_KEY wins; otherwise the key file in the data dir, created with a fresh random key (0600) on first
 * start. `wx` makes two processes starting together agree on one key instead of overwriting each other.
 */
export function loadKeyring(envKeys: Buffer[], dataDir: string): Keyring & { created: boolean } {
  if (envKeys.length > 0) return { keys: envKeys.map(masterKey), source: 'env', file: null, created: false };
  const file = keyFilePath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let created = false;
  try {
    const key = randomBytes(32);
    fs.writeFileSync(
      file,
      `# ces master keys, newest first. Losing this file makes stored credentials unreadable.\n${key.toString('base64')}\n`,
      { mode: 0o600, flag: 'wx' },
    );
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { keys: readKeyFile(file), source: 'file', file, created };
}
