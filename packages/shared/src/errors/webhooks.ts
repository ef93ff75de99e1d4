// Issue 16: customer webhooks.
export const WEBHOOK_ERRORS = {
  WEBHOOKS_LIMIT: 'You can have at most 10 webhook endpoints. Delete one you no longer use to add another.',
  // Issue 26: the server's WEBHOOKS_ALLOWED_PORTS; `port` and `allowed` travel in the error body.
  WEBHOOK_PORT_NOT_ALLOWED: 'Webhook addresses can use only these ports: {{allowed}}. Port {{port}} is not one of them.',
} as const;
