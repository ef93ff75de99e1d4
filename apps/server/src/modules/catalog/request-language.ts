// Moved (decision 044): a request's language is lib/request-language.ts. This re-export keeps the folders being moved
// this week building; it goes when they have.
export { askedLanguage, readerLanguage, requestLanguage } from '../../lib/request-language.js';
