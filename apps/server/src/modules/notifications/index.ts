// The notifications' face (decision 044), begun for the domains that notify; notifications is not yet a domain
// itself (not-yet-domains.json).
export { renderNotification, type NotificationParams, type NotificationsService } from './notifications.service.js';
export { renderStored, renderText, type ServerText } from './server-texts.js';
