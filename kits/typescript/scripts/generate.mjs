#!/usr/bin/env node
/*
 * Generates src/generated/protocol.ts, the TypeScript types of every GCP message, from the
 * suite's JSON Schemas (never edit the output: run `npm run generate` again).
 *
 * Where the schemas are, first match wins:
 *   1. the first argument:       npm run generate -- /path/to/schemas
 *   2. the environment variable: GUINOTE_SCHEMAS=/path/to/schemas npm run build
 *   3. ../../adapters/schemas, relative to this kit (the kit inside the suite's checkout).
 * Outside the suite's checkout, the schemas are inside the installed Python package:
 *   python -c "import guinote_conformance.adapters, pathlib; print(pathlib.Path(guinote_conformance.adapters.__file__).parent / 'schemas')"
 *
 * The schemas are one file per message plus common.json (shared definitions) and fields.json
 * (the value of each state field). They are merged into ONE schema whose $defs hold every
 * definition, so that each type is declared once and no $ref is ever fetched (their $id is a
 * name, https://guinote-conformance.invalid/..., not a location). Two shapes that
 * json-schema-to-typescript cannot type are rewritten first, keeping their meaning:
 *   - an answer's `if ok: true then <success> else <error>` becomes the union of the two;
 *   - a list of `if type: X then <members>` (events, actions) becomes a union of one type per X,
 *     so that a member the schemas add to an event breaks the build where the event is made.
 * Extension members (`x-...`) are left out of the types: the kit never writes any.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const kit = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemas = path.resolve(process.argv[2] || process.env.GUINOTE_SCHEMAS || path.join(kit, '..', '..', 'adapters', 'schemas'));
const output = path.join(kit, 'src', 'generated', 'protocol.ts');

if (!fs.existsSync(path.join(schemas, 'common.json'))) {
  console.error(`generate: no GCP schemas in ${schemas} (no common.json there).`);
  console.error('Name the folder with GUINOTE_SCHEMAS=... or `npm run generate -- <folder>`; with the suite installed:');
  console.error(`  python -c "import guinote_conformance.adapters, pathlib; print(pathlib.Path(guinote_conformance.adapters.__file__).parent / 'schemas')"`);
  process.exit(1);
}

const pascal = (text) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
const read = (name) => JSON.parse(fs.readFileSync(path.join(schemas, name), 'utf8'));

const defs = {};
const common = read('common.json');
const fields = read('fields.json');
const messages = fs
  .readdirSync(schemas)
  .filter((name) => /\.(request|response)\.json$/.test(name))
  .sort();

// The name in the merged $defs of definition `name` of schema file `owner`.
const defName = (owner, name) =>
  owner === 'common.json' ? name : owner === 'fields.json' ? `field_${name}` : `${owner.replace(/\.json$/, '')}_${name}`;

// Every $ref of the merged schema points into its own $defs.
function rewrite(node, file) {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, file));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || key === 'patternProperties') continue;
    if (key === '$defs' && file !== 'common.json' && file !== 'fields.json') continue; // hoisted below
    if (key === 'description' && '$ref' in node) continue; // else every use of a $ref is a type of its own
    if (key === '$ref') {
      const [target, pointer] = value.split('#');
      const owner = target || file;
      const name = pointer.replace(/^\/\$defs\//, '');
      out.$ref = `#/$defs/${defName(owner, name)}`;
      continue;
    }
    out[key] = rewrite(value, file);
  }
  return out;
}

const constOf = (test) => {
  const properties = test && test.properties;
  const keys = properties ? Object.keys(properties) : [];
  return keys.length === 1 && 'const' in properties[keys[0]] ? [keys[0], properties[keys[0]].const] : null;
};

// `if K: V then A else B` -> anyOf [A with K: V, B]; a list of `if type: X then ...` -> one type per X.
function discriminate(schema, name) {
  if (schema === null || typeof schema !== 'object') return schema;
  const test = constOf(schema.if);
  if (test && schema.then && !schema.else) {
    const [key, value] = test;
    const { if: _if, then, ...rest } = schema;
    const choices = rest.properties && rest.properties[key] && rest.properties[key].enum;
    if (!choices) return rest;
    const others = choices.filter((choice) => choice !== value);
    return {
      description: rest.description,
      anyOf: [
        { ...rest, description: undefined, title: `${name}${pascal(String(value))}`, required: [...new Set([...(rest.required || []), ...(then.required || [])])],
          properties: { ...rest.properties, [key]: { const: value } } },
        { ...rest, description: undefined, title: `${name}Other`, properties: { ...rest.properties, [key]: { enum: others } } },
      ],
    };
  }
  if (test && schema.then) {
    const [key, value] = test;
    const then = discriminate({ ...schema.then }, `${name}${value === true ? 'Ok' : pascal(String(value))}`);
    const branches = [{ ...then, title: then.title || `${name}${value === true ? 'Ok' : pascal(String(value))}` }];
    if (then.properties && !then.anyOf) then.properties = { ...then.properties, [key]: { const: value } };
    if (schema.else) {
      const other = discriminate({ ...schema.else }, `${name}${value === true ? 'Error' : 'Else'}`);
      if (other.$ref && other.properties) {
        branches.push({ title: `${name}${value === true ? 'Error' : 'Else'}`, allOf: [{ $ref: other.$ref }, { type: 'object', properties: other.properties }] });
      } else {
        branches.push({ ...other, title: other.title || `${name}Else` });
      }
    }
    return { description: schema.description, anyOf: branches };
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0 && schema.allOf.every((part) => constOf(part.if))) {
    const key = constOf(schema.allOf[0].if)[0];
    const thenOf = new Map(schema.allOf.map((part) => [constOf(part.if)[1], part.then || {}]));
    const values = (schema.properties && schema.properties[key] && schema.properties[key].enum) || [...thenOf.keys()];
    const variants = values.map((value) => {
      const then = thenOf.get(value) || {};
      // The members this variant names: its required ones, its own properties, and those of its alternatives.
      const named = new Set([...(then.required || []), ...Object.keys(then.properties || {})]);
      for (const alternative of [...(then.oneOf || []), ...(then.anyOf || [])]) (alternative.required || []).forEach((m) => named.add(m));
      const properties = {};
      for (const member of named) properties[member] = (then.properties || {})[member] || (schema.properties || {})[member] || {};
      return {
        title: `${name}${pascal(String(value))}`,
        type: 'object',
        required: [...new Set([key, ...(then.required || [])])],
        properties: { [key]: { const: value }, ...properties },
        additionalProperties: false,
      };
    });
    return { description: schema.description, anyOf: variants };
  }
  return schema;
}

// Names that would shadow a global of TypeScript or read ambiguously in the kit's code.
const titles = { error: 'ErrorAnswer', game: 'GameId', field: 'FieldName', id: 'RequestId' };
for (const [name, schema] of Object.entries(common.$defs)) {
  const title = titles[name] || pascal(name);
  defs[name] = { ...discriminate(rewrite(schema, 'common.json'), title), title };
}
// Incoming actions stay loose on purpose (the harness sends malformed ones): a plain object.
defs.action_request = { ...rewrite(common.$defs.action_request, 'common.json'), title: 'ActionRequest', additionalProperties: true };

// State fields: one type per field value, and StateFieldValues, the name -> value table. A field
// only some engines must give (x-capability) is optional in the table.
const fieldTable = { title: 'StateFieldValues', type: 'object', properties: {}, required: [], additionalProperties: false };
for (const [name, schema] of Object.entries(fields.$defs)) {
  defs[`field_${name}`] = { ...rewrite(schema, 'fields.json'), title: `Field${pascal(name)}` };
  fieldTable.properties[name] = { $ref: `#/$defs/field_${name}` };
  if (!schema['x-capability']) fieldTable.required.push(name);
}
defs.state_field_values = fieldTable;

for (const file of messages) {
  const schema = read(file);
  for (const [name, def] of Object.entries(schema.$defs || {})) {
    const title = pascal(`${file.replace(/\.(request|response)\.json$/, '')} ${name}`);
    defs[defName(file, name)] = { ...discriminate(rewrite(def, file), title), title };
  }
  const base = pascal(file.replace(/\.json$/, ''));
  defs[file] = { ...discriminate(rewrite(schema, file), base.replace(/Response$/, '')), title: base };
}

const merged = { title: 'GcpSchemas', type: 'object', additionalProperties: false, properties: {}, $defs: defs };
const banner = [
  '/* eslint-disable */',
  '/**',
  ` * GENERATED by scripts/generate.mjs from the GCP JSON Schemas in ${path.relative(kit, schemas) || '.'}.`,
  ' * Do not edit: run `npm run generate` (or `npm run build`) again.',
  ' */',
].join('\n');
const source = await compile(merged, 'GcpSchemas', {
  bannerComment: banner,
  unreachableDefinitions: true,
  additionalProperties: false,
  strictIndexSignatures: true,
  $refOptions: { resolve: { external: false } },
  style: { singleQuote: true, printWidth: 120 },
});
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, source);
console.error(`generate: ${messages.length + 2} schemas of ${schemas} -> ${path.relative(process.cwd(), output)}`);
