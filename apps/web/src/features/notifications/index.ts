// The notifications feature's public face: the console shows the same bell to operators (issue 28, item 8).
export { NotificationsBell } from './notifications-bell';
export { useNotificationsPoll } from './use-notifications-poll';
