// A compact reading of an OpenAPI 3 document for the Documentation page: operations grouped by tag, with their
// parameters, request body fields and responses. Only what a reader needs; no validator, no Swagger UI.

type Json = Record<string, unknown>;
export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json>; securitySchemes?: Record<string, Json> };
  tags?: Array<{ name: string; description?: string }>;
}

export interface Field { name: string; type: string; required: boolean; description?: string }
export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  parameters: Array<Field & { in: string }>;
  body: Field[];
  responses: Array<{ status: string; description: string }>;
  bearer: boolean;
}
export interface TagGroup { tag: string; description?: string; operations: Operation[] }

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows a local `$ref` ("#/components/schemas/X"); anything else is returned as is. */
function resolve(doc: OpenApiDocument, value: unknown, depth = 0): Json {
  if (!isObject(value)) return {};
  const ref = value.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && depth < 10) {
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[part] : undefined;
    return resolve(doc, target, depth + 1);
  }
  return value;
}

/** A short type text: "string", "integer", "string[]", "'hour' | 'day'", "object", "a | b". */
export function typeText(doc: OpenApiDocument, raw: unknown, depth = 0): string {
  const schema = resolve(doc, raw);
  if (depth > 4) return 'object';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v).replace(/"/g, "'")).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const).replace(/"/g, "'");
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    return [...new Set(union.map((s) => typeText(doc, s, depth + 1)))].join(' | ');
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeText(doc, schema.items, depth + 1)}[]`;
  if (typeof type === 'string') return schema.format && type === 'string' ? `string (${String(schema.format)})` : type;
  if (isObject(schema.properties)) return 'object';
  return 'any';
}

/** The top-level fields of an object schema (allOf parts merged). */
export function fieldsOf(doc: OpenApiDocument, raw: unknown): Field[] {
  const schema = resolve(doc, raw);
  if (Array.isArray(schema.allOf)) return schema.allOf.flatMap((part) => fieldsOf(doc, part));
  if (!isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(schema.properties).map(([name, prop]) => {
    const resolved = resolve(doc, prop);
    return {
      name,
      type: typeText(doc, prop),
      required: required.has(name),
      ...(typeof resolved.description === 'string' ? { description: resolved.description } : {}),
    };
  });
}

/** Groups every operation by its first tag (untagged ones under 'other'), in the document's tag order. */
export function groupOperations(doc: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, { tag: tag.name, description: tag.description, operations: [] });
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'other';
      if (!groups.has(tag)) groups.set(tag, { tag, operations: [] });
      const parameters = (Array.isArray(op.parameters) ? op.parameters : []).map((p) => {
        const param = resolve(doc, p);
        return {
          name: String(param.name ?? ''),
          in: String(param.in ?? ''),
          type: typeText(doc, param.schema),
          required: param.required === true,
          ...(typeof param.description === 'string' ? { description: param.description } : {}),
        };
      });
      const content = resolve(doc, op.requestBody).content;
      const json = isObject(content) ? (content['application/json'] ?? Object.values(content)[0]) : undefined;
      const body = isObject(json) ? fieldsOf(doc, json.schema) : [];
      const responses = Object.entries(isObject(op.responses) ? op.responses : {}).map(([status, r]) => ({
        status, description: String(resolve(doc, r).description ?? ''),
      }));
      const security = Array.isArray(op.security) ? op.security : [];
      groups.get(tag)!.operations.push({
        id: `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-'),
        method: method.toUpperCase(),
        path,
        summary: typeof op.summary === 'string' ? op.summary : '',
        ...(typeof op.description === 'string' ? { description: op.description } : {}),
        parameters,
        body,
        responses,
        bearer: security.some((s) => isObject(s) && Object.keys(s).length > 0),
      });
    }
  }
  return [...groups.values()].filter((g) => g.operations.length > 0);
}
