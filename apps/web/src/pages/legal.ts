/** Spec section 9: the minimum age of a user. */
export const MINIMUM_AGE_YEARS = 13;
/** Spec section 9: changes to the Privacy Policy are notified this many days ahead. */
export const POLICY_CHANGE_NOTICE_DAYS = 30;
/** Privacy: deleted data leaves backups within this many days. */
export const DATA_DELETION_DAYS = 30;
/** The date both legal texts were last changed. */
export const LEGAL_UPDATED = '6 December 2026';
