/** The id of the main content, where 'Skip to content' moves the focus. */
export const CONTENT_ID = 'content';
