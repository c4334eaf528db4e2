import { describe, expect, it } from 'vitest';
import { openApiExamples } from './openapi-examples.ts';

describe('OpenAPI examples', () => {
  it('are valid for the schema they illustrate', () => {
    const invalid = openApiExamples.flatMap(([schema, example]) => {
      const parsed = schema.safeParse(example);
      return parsed.success
        ? []
        : [{ example: JSON.stringify(example).slice(0, 80), issues: parsed.error.issues }];
    });
    expect(invalid).toEqual([]);
  });

  it('illustrate each schema once', () => {
    const schemas = openApiExamples.map(([schema]) => schema);
    expect(new Set(schemas).size).toBe(schemas.length);
  });
});
