import { loadPageLocalization } from './localization';

// Imported first by main.ts: ES modules run in import order, so every later module's messages are translated.
loadPageLocalization(document);
