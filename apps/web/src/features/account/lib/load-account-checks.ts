// The Account page's form checks (account-checks.ts: the shared schemas and zod, ~10 KB of gzip) load when a form is
// first focused or submitted, not with the page (issue 31, item 4). A failed load is forgotten, so the next try loads
// again.
type AccountChecks = typeof import('./account-checks');

let pending: Promise<AccountChecks> | null = null;

export function loadAccountChecks(): Promise<AccountChecks> {
  pending ??= import('./account-checks').catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** For onFocus: start loading; a failure shows on submit. */
export const preloadAccountChecks = () => { loadAccountChecks().catch(() => {}); };
