// Issue 16: customer webhooks.
export const WEBHOOK_ERRORS = {
  WEBHOOKS_LIMIT: 'You can have at most 10 webhook endpoints. Delete one you no longer use to add another.',
} as const;
