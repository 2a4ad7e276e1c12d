// A second reporter for `npm test`: after the run, the files that took longest (the sum of their top-level tests'
// durations) and the pass's wall time, so whoever adds a slow file sees it in every run, not only when the
// suite passes its ten-minute budget. Written to stderr beside the TAP on stdout. A bundle (test-bundle.mjs) is
// named by its test file.
import { unbundled } from './test-bundle.mjs';

export default async function* slowest(source) {
  const started = Date.now();
  const byFile = new Map();
  for await (const event of source) {
    if (
      (event.type === 'test:pass' || event.type === 'test:fail') &&
      event.data.nesting === 0 &&
      event.data.file
    ) {
      const ms = event.data.details?.duration_ms ?? 0;
      byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + ms);
    }
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15);
  yield `\n# ${byFile.size} files in ${((Date.now() - started) / 1000).toFixed(1)} s wall; the slowest:\n`;
  for (const [file, ms] of rows) {
    yield `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${unbundled(file)}\n`;
  }
}
