/** Id of each layout's <main> element: the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';
