// tests/js/validate.mjs: runs the Khronos glTF-Validator on each file named
// on the command line and prints one JSON line per file: its name and the
// validator's issue counts, then the first messages. Exits 0 when every
// file has 0 errors and 0 warnings, 1 otherwise, 2 on a file it cannot read.
import { readFile } from 'node:fs/promises';
import validator from 'gltf-validator';

let bad = 0;
for (const path of process.argv.slice(2)) {
  let data;
  try {
    data = new Uint8Array(await readFile(path));
  } catch (e) {
    console.log(JSON.stringify({ file: path, error: String(e) }));
    process.exit(2);
  }
  const r = await validator.validateBytes(data, { uri: path, maxIssues: 50 });
  const i = r.issues;
  const first = i.messages.filter((m) => m.severity <= 1).slice(0, 10);
  console.log(JSON.stringify({ file: path, errors: i.numErrors, warnings: i.numWarnings,
                               infos: i.numInfos, hints: i.numHints, messages: first }));
  if (i.numErrors || i.numWarnings) bad = 1;
}
process.exit(bad);
