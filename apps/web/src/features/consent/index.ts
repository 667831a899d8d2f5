// Analytics consent: the banner that asks before Google Tag Manager loads (only when GTM_ID is set).
export { ConsentBanner, askConsentAgain, useTagManagerEnabled } from './ConsentBanner.tsx';
