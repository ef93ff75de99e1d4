// The documentation feature's public face: the API keys card also sits on the Account page.
export { ApiKeysCard } from './components/api-keys-card';
