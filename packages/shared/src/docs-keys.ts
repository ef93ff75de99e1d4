// The Documentation page's API reference is read from the OpenAPI document, which stays in English; its groups and
// operations are shown in the reader's language from the `docs` locale namespace (issue 14, item 4):
// reference.tags.<tag>.title / .description and reference.operations.<key>, with the key made here.

/** 'PATCH', '/api/v1/modems/{id}' → 'patch-api-v1-modems-id' (a locale key: no dots, no colons). */
export function docsOperationKey(method: string, path: string): string {
  return `${method}-${path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}
