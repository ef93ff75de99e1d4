import { icons } from '../../components/ui/icons';
import { LanguageSelect } from '../../components/ui/language-select';

/** The sidebar's language switcher (spec §2). */
export function LanguageSwitcher() {
  return <LanguageSelect className="language-switcher" icon={icons.globe} />;
}
