import classes from './Logo.module.css';

/** The Adloom mark and word. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <span className={classes.logo}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false">
        <rect width="32" height="32" rx="7" fill="#1c5fd4" />
        <path d="M8 23 14.5 9h3L24 23h-3.4l-1.3-3h-6.6l-1.3 3zm5.8-6h4.4L16 11.9z" fill="#fff" />
      </svg>
      <span className={classes.word} style={{ fontSize: size * 0.72 }}>
        Adloom
      </span>
    </span>
  );
}
