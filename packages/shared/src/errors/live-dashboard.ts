// Issue 5: API keys and the traffic ingest.
export const LIVE_DASHBOARD_ERRORS = {
  API_KEYS_LIMIT: 'You can have at most 20 API keys. Revoke one you no longer use to create another.',
  HOST_KEY_INVALID: 'Unknown or missing host key',
  TRAFFIC_RANGE: 'Choose a range of at most 93 days that ends after it starts',
} as const;
