import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoutes } from './app/router';
import { initI18n } from './lib/i18n';
import { languageFromPath } from './lib/language';
import './styles/global.css';

void initI18n(languageFromPath(location.pathname));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoutes />
  </StrictMode>,
);
