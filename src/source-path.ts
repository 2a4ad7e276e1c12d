/**
 * Data files that live beside the sources (connector definitions, the connect page's assets) are read from the
 * package's src/ whether the code runs as TypeScript from src/ or as the build's bundle in dist/: a build never
 * holds a copy that could go stale when a definition is edited. This module is one directory below the package
 * root in both (src/source-path.ts; dist/main.js, which it is bundled into).
 */
const PACKAGE_ROOT = new URL('../', import.meta.url);

/** A file of the package, by its path from the package root (`src/web/connect.html`). */
export function packageFile(path: string): URL {
  return new URL(path, PACKAGE_ROOT);
}

/** True when running the build's bundle rather than the TypeScript sources. */
export const RUNNING_BUILD = !import.meta.url.endsWith('.ts');
