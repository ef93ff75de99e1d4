/** Your Proxies showing only the ports with `tag` (the filter lives in the address, so it can be linked); null: all. */
export function tagFilterHref(tag: string | null): string {
  return tag ? `/proxies?tag=${encodeURIComponent(tag)}` : '/proxies';
}
