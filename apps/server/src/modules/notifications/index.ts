// Notifications (decision 044): the bell, the e-mails and the unsubscribe link, the console's messages to customers,
// and what other domains notify through, inside their own transactions (`notify(…, tx)`, `alertOperators(tx, …)`).
// Texts the server makes are stored as a key and params and rendered in the reader's language (server-texts.ts).
export { NotificationEmails } from './notification-emails.js';
export { renderNotification, type NotificationParams, type NotificationType } from './notification-view.js';
export { registerNotificationsAdminRoutes } from './notifications-admin.routes.js';
export { NotificationsRepository } from './notifications.repository.js';
export { registerNotifications } from './notifications.routes.js';
export { NotificationsService } from './notifications.service.js';
export { defaultPortName, portName, portNamesText, portNameText, type NamedPort } from './port-name.js';
export { renderStored, renderText, type LocalizedValue, type ServerText, type TextParam, type TextParams } from './server-texts.js';
