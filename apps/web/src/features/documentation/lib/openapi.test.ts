import { describe, expect, it } from 'vitest';
import { groupOperations, typeText, type OpenApiDocument } from './openapi';

const doc: OpenApiDocument = {
  openapi: '3.0.3',
  tags: [{ name: 'ports', description: 'Your ports' }, { name: 'account' }],
  components: {
    schemas: { Port: { type: 'object', properties: { _id: { type: 'string', format: 'uuid' } } } },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  },
  paths: {
    '/api/v1/modems': {
      get: { tags: ['ports'], summary: 'List ports', security: [{ bearer: [] }], responses: { 200: { description: 'The ports' } } },
    },
    '/api/v1/modems/{id}': {
      patch: {
        tags: ['ports'],
        summary: 'Change a port',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { content: { 'application/json': { schema: {
          type: 'object', required: ['modem_name'],
          properties: {
            modem_name: { type: 'string', description: 'A name' },
            whitelist: { type: 'array', items: { type: 'string' } },
            mode: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
            port: { $ref: '#/components/schemas/Port' },
          },
        } } } },
        responses: { 200: { description: 'OK' }, 404: { description: 'Not found' } },
      },
    },
    '/healthz': { get: { summary: 'Health', responses: {} } },
  },
};

describe('openapi reader', () => {
  it('groups operations by tag in the document order, untagged ones last', () => {
    const groups = groupOperations(doc);
    expect(groups.map((g) => [g.tag, g.operations.map((o) => `${o.method} ${o.path}`)])).toEqual([
      ['ports', ['GET /api/v1/modems', 'PATCH /api/v1/modems/{id}']],
      ['other', ['GET /healthz']],
    ]);
  });

  it('reads parameters, body fields with types and required marks, responses and bearer security', () => {
    const [list, patch] = groupOperations(doc)[0]!.operations;
    expect(list!.bearer).toBe(true);
    expect(patch!.bearer).toBe(false);
    expect(patch!.parameters).toEqual([{ name: 'id', in: 'path', type: 'string (uuid)', required: true }]);
    expect(patch!.body).toEqual([
      { name: 'modem_name', type: 'string', required: true, description: 'A name' },
      { name: 'whitelist', type: 'string[]', required: false },
      { name: 'mode', type: "'a' | 'b' | null", required: false },
      { name: 'port', type: 'object', required: false },
    ]);
    expect(patch!.responses).toEqual([{ status: '200', description: 'OK' }, { status: '404', description: 'Not found' }]);
  });

  it('survives a cyclic $ref', () => {
    const cyclic: OpenApiDocument = { components: { schemas: { A: { $ref: '#/components/schemas/A' } } } };
    expect(typeText(cyclic, { $ref: '#/components/schemas/A' })).toBe('any');
  });
});
