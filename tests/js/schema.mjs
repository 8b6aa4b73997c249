// tests/js/schema.mjs: validates each JSON file named after the schema against
// it (JSON Schema draft 2020-12, with Ajv): `node schema.mjs SCHEMA FILE...`.
// Prints each file that does not validate ("FILE does not validate against
// SCHEMA:") with its first errors and exits 1; exits 2 when the schema or a
// file cannot be read or parsed; 0 when all validate.
// The suites' one schema check (tests/support/ts.c: ts_assert_schema). Ajv
// compiles the schema into code; that code is kept under $FF8DIFF_BINARY_DIR
// (tests/schema-code/<SHA-256 of the schema>.cjs), so later calls load it
// instead of compiling again; Ajv's compiler itself is loaded only then (its
// modules took most of a check's 0.35 s). A report of several MB validates in
// about a second where python3-jsonschema took eight.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

function text(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    console.error(`${path}: ${e.message}`);
    process.exit(2);
  }
}

function parse(path, t) {
  try {
    return JSON.parse(t);
  } catch (e) {
    console.error(`${path}: ${e.message}`);
    process.exit(2);
  }
}

// Formats are not asserted (as python3-jsonschema without a format checker);
// strict mode off: the schemas carry annotations Ajv does not know.
const options = { allErrors: false, strict: false, validateFormats: false };

// The file the code compiled from a schema's text is kept in, under bin.
function codeFile(bin, src) {
  const hash = createHash('sha256').update(src).digest('hex');
  return join(bin, 'tests', 'schema-code', `${hash}.cjs`);
}

// The schema compiled by Ajv: a validating function, or (source) its code.
async function compile(schemaPath, src, source) {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const ajv = new Ajv2020(source ? { ...options, code: { source: true } } : options);
  const validate = ajv.compile(parse(schemaPath, src));
  if (!source) return validate;
  const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
  return standaloneCode(ajv, validate);
}

async function validator(schemaPath) {
  const src = text(schemaPath);
  const bin = process.env.FF8DIFF_BINARY_DIR;
  if (!bin) return compile(schemaPath, src, false);
  const file = codeFile(bin, src);
  if (!existsSync(file)) {
    const code = await compile(schemaPath, src, true);
    mkdirSync(dirname(file), { recursive: true });
    // Written whole, then renamed: a suite running beside sees all or nothing.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  // CommonJS code whose require() of Ajv's runtime helpers resolves from here.
  const mod = { exports: {} };
  new Function('require', 'module', 'exports', readFileSync(file, 'utf8'))(
    createRequire(import.meta.url), mod, mod.exports);
  return mod.exports.default ?? mod.exports;
}

const [schemaPath, ...files] = process.argv.slice(2);
if (!schemaPath || files.length === 0) {
  console.error('usage: node schema.mjs SCHEMA FILE...');
  process.exit(2);
}
const validate = await validator(schemaPath);
let bad = 0;
for (const f of files) {
  if (!validate(parse(f, text(f)))) {
    console.error(`${f} does not validate against ${schemaPath}:`);
    for (const e of validate.errors.slice(0, 5))
      console.error(`  ${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)}`);
    bad = 1;
  }
}
process.exit(bad);
