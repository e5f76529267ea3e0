/**
 * Small shared pieces: status badges, empty states, summary tiles, page header, card.
 */
import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './icons.tsx';

export type BadgeTone = 'success' | 'warning' | 'danger' | 'neutral' | 'info';

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }): ReactElement {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

export function EmptyState({
  title,
  text,
  icon = 'info',
}: {
  title: string;
  text?: string;
  icon?: IconName;
}): ReactElement {
  return (
    <div className="empty-state">
      <span className="empty-icon">
        <Icon name={icon} size={28} />
      </span>
      <p className="empty-title">{title}</p>
      {text ? <p className="empty-text">{text}</p> : null}
    </div>
  );
}

export function SummaryTile({
  label,
  value,
  tone = 'neutral',
}: {
  label: string;
  value: ReactNode;
  tone?: BadgeTone;
}): ReactElement {
  return (
    <div className={`tile tile-${tone}`}>
      <p className="tile-label">{label}</p>
      <p className="tile-value">{value}</p>
    </div>
  );
}

export function PageHeader({
  title,
  children,
  subtitle,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
}): ReactElement {
  return (
    <header className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {subtitle ? <div className="page-subtitle">{subtitle}</div> : null}
      </div>
      {children ? <div className="page-actions">{children}</div> : null}
    </header>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}): ReactElement {
  return (
    <section className={`card ${className ?? ''}`}>
      {title || actions ? (
        <header className="card-header">
          {title ? <h2 className="card-title">{title}</h2> : <span />}
          {actions}
        </header>
      ) : null}
      {children}
    </section>
  );
}

export function Notice({
  tone,
  title,
  children,
}: {
  tone: BadgeTone;
  title?: string;
  children: ReactNode;
}): ReactElement {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'danger' ? 'alert' : undefined}>
      {title ? <p className="notice-title">{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
