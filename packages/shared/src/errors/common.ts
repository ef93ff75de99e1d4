// Errors any endpoint can answer.
export const COMMON_ERRORS = {
  VALIDATION: 'Invalid request',
  UNAUTHORIZED: 'Please sign in to continue',
  FORBIDDEN: 'You are not allowed to do this',
  CSRF: 'This request came from another site and was refused',
  NOT_FOUND: 'Not found',
  RATE_LIMITED: 'Too many attempts. Please wait a minute and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again in a moment.',
  NETWORK: 'Network error. Check your connection and try again.',
  SERVICE_UNAVAILABLE: 'The service is briefly unavailable. Please try again in a few seconds.',
} as const;
