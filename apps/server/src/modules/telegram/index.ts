// Telegram for customers and operators (decision 044): linked chats and the bot's answers, the notifications a chat
// wants (sent after commit), and the console's bot settings.
export { registerTelegramAdminRoutes } from './telegram-admin.routes.js';
export { TelegramBot, type TelegramGatewayFactory } from './telegram-bot.js';
export { TelegramNotifications } from './telegram-notifications.js';
export { TelegramRepository } from './telegram.repository.js';
export { registerTelegram } from './telegram.routes.js';
export { TelegramService } from './telegram.service.js';
