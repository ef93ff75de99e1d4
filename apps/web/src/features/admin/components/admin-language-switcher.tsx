import { LanguageSelect } from '../../../components/ui/language-select';

/** Switches the console's language by rewriting the first path segment; the page and its query stay. */
export function AdminLanguageSwitcher() {
  return <LanguageSelect className="admin-language" />;
}
