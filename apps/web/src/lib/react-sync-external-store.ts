// What `use-sync-external-store/shim` gives on React 18 and later: React's own useSyncExternalStore (the shim's code
// only runs on older React). vite.config.ts points wouter's import of the shim here, so no page downloads the shim's
// fallback (issue 31, item 4).
export { useSyncExternalStore } from 'react';
