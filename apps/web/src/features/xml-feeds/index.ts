// The XML feed panel: a shop's product feed made into rows and structured snippets (issue 17).
export { XmlFeedPanel } from './XmlFeedPanel.tsx';
