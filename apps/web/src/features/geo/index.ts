// New Geo Feed: a feed of Google's geo targets (spec sections 2, 3, 5 and 7).
export { GeoFeedModal } from './GeoFeedModal.tsx';
