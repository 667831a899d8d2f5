import { SESSION_KEYS } from '../state/session.ts';

/**
 * Set on <html> by the prerendered pages' inline script, before the first paint, when the browser
 * holds session values: the prerendered (signed-out) page is then hidden (styles/global.css), and
 * main.tsx draws the page afresh instead of hydrating it.
 */
export const STORED_SESSION_ATTRIBUTE = 'data-stored-session';

/**
 * The inline script of a prerendered page's head (allowed by its hash in the server's
 * Content-Security-Policy). Blocked storage counts as none, as in state/session.ts.
 */
export const STORED_SESSION_SCRIPT = `try{if(${JSON.stringify(Object.values(SESSION_KEYS))}.some(function(k){return localStorage.getItem(k)!==null}))document.documentElement.setAttribute(${JSON.stringify(STORED_SESSION_ATTRIBUTE)},'')}catch(e){}`;
