/** Spec section 9: a subscription is cancelled at least this many hours before it renews. */
export const CANCELLATION_NOTICE_HOURS = 72;
/** Spec section 9: a failed payment is retried within this many days. */
export const PAYMENT_RETRY_DAYS = 3;
/** Spec section 9: the minimum age of a user. */
export const MINIMUM_AGE_YEARS = 13;
/** Privacy: deleted data leaves backups within this many days. */
export const DATA_DELETION_DAYS = 30;
/** The date both legal texts were last changed. */
export const LEGAL_UPDATED = '22 November 2026';
