import { LANGUAGES, type Language } from '@cellport/shared';
import { renderText, type LocalizedValue, type ServerText } from './server-texts.js';

// A port's default name ("Proxy 3", "Прокси 3", "代理 3") is a text the server makes, so it is shown in the reader's
// language (issue 27, item 12); a name the customer chose is shown as typed. `default_number` marks the default
// (migration 2026_12_12_1831_default_port_names); `name` then holds the English text for readers without a language.

export interface NamedPort { name: string; default_number: number | null }

/** The port's default name as a stored text, for notifications and invoice lines rendered later in their reader's language. */
export const portNameText = (port: NamedPort): string | ServerText =>
  port.default_number === null ? port.name : { key: 'port_default_name', params: { number: port.default_number } };

/** The port's name in `lng`. */
export const portName = (port: NamedPort, lng: Language): string =>
  port.default_number === null ? port.name : renderText(lng, 'port_default_name', { number: port.default_number });

/** Several ports' names joined ("Proxy 1, Proxy 2"), in every language, for a stored text's parameter. */
export function portNamesText(ports: NamedPort[]): LocalizedValue {
  const joined = (lng: Language) => ports.map((p) => portName(p, lng)).join(', ');
  return Object.fromEntries(LANGUAGES.map((lng) => [lng, joined(lng)])) as LocalizedValue;
}

/** The name a newly bought port gets: the default, numbered after the customer's ports so far. */
export const defaultPortName = (number: number): NamedPort => ({ name: renderText('en', 'port_default_name', { number }), default_number: number });
