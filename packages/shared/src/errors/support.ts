// Issue 17 item 4: support tickets.
export const SUPPORT_ERRORS = {
  SUPPORT_TICKET_NOT_FOUND: 'This support request was not found',
  SUPPORT_PORT_NOT_FOUND: 'This port was not found among your ports',
  SUPPORT_ATTACHMENT_TOO_LARGE: 'A screenshot can be at most 5 MB',
  SUPPORT_ATTACHMENT_TYPE: 'Attach a PNG, JPEG or WebP image',
  SUPPORT_TOO_MANY_ATTACHMENTS: 'A message can have at most 4 screenshots',
  SUPPORT_UPLOAD_QUOTA: 'You have uploaded 50 MB of screenshots in the last 24 hours, the most allowed. Describe the problem in words, or attach more tomorrow',
  SUPPORT_ATTACHMENT_NOT_FOUND: 'This attachment was not found',
  SUPPORT_CANNED_REPLY_NOT_FOUND: 'This canned reply was not found',
} as const;
