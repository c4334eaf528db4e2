import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOpenApiDocument } from '../src/openapi.ts';

/** Writes apps/api/openapi.json, the committed OpenAPI document (a test fails when it is stale). */
const target = path.resolve(import.meta.dirname, '../openapi.json');
await writeFile(target, await buildOpenApiDocument());
console.log(`Wrote ${path.relative(process.cwd(), target)}`);
