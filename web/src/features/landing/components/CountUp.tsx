/**
 * A figure that counts up once when scrolled into view (2.5 s, ease-out), as the landing
 * page's statistics band does (spec sections 2 and 9), shown through `format` (en-IN
 * grouping). Assistive technology is given the final figure, not every frame.
 */
import { useEffect, useRef, useState, type ReactElement } from 'react';

export const COUNT_UP_MS = 2500;

const wholeNumber = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });

export function CountUp({
  target,
  format = (value) => wholeNumber.format(value),
}: {
  target: number;
  format?: (value: number) => string;
}): ReactElement {
  const [value, setValue] = useState(0);
  const ref = useRef<HTMLSpanElement | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    let frame = 0;
    const run = () => {
      const started = performance.now();
      const step = (now: number) => {
        const progress = Math.min(1, (now - started) / COUNT_UP_MS);
        const eased = 1 - Math.pow(1 - progress, 3);
        setValue(target * eased);
        if (progress < 1) frame = requestAnimationFrame(step);
      };
      frame = requestAnimationFrame(step);
    };
    const reducedMotion =
      typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (typeof IntersectionObserver === 'undefined' || reducedMotion) {
      setValue(target);
      return undefined;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          run();
        }
      },
      { threshold: 0.4 },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [target]);
  return (
    <span ref={ref}>
      <span aria-hidden="true">{format(value)}</span>
      <span className="sr-only">{format(target)}</span>
    </span>
  );
}
