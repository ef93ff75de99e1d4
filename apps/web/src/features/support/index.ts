// What other features (the operator console) use of support tickets: the conversation, its state badge, the reply
// box with screenshots, and the attachment checks.
export { MessageThread, TicketStateBadge } from './components/message-thread';
export { ReplyBox } from './components/reply-box';
export { attachmentUrl } from './api/upload-attachment';
export { checkAttachments } from './lib/attachment-check';
