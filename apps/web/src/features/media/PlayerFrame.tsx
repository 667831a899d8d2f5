/**
 * A configured third-party frame (a video player or a scheduling widget), loaded only when it
 * is on screen. It sends the page's origin, no path, as the referrer: the app's policy is
 * no-referrer, and players refuse to play without one.
 */
export function PlayerFrame({
  src,
  title,
  className,
}: {
  src: string;
  title: string;
  className?: string;
}) {
  return (
    <iframe
      className={className}
      src={src}
      title={title}
      loading="lazy"
      referrerPolicy="strict-origin-when-cross-origin"
      allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
      allowFullScreen
    />
  );
}
