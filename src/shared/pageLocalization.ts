/** The id of the chat page's JSON data block holding its translations (written by the host, read by the page). */
export const L10N_ELEMENT_ID = 'howdah-l10n';
