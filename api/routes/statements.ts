/**
 * /api/transactions/statement*: the signed-in user's own statement. Nothing in the request
 * names an account: it is always the caller's wallet. A period is whole Asia/Kolkata days,
 * `from` and `to` included, at most MAX_STATEMENT_DAYS; anything else is a 400 envelope.
 * - statement/charts: JSON for the dashboard's charts (every day's closing balance, money
 *   in and out per month), from projection "statement_days";
 * - statement.csv: the statement's lines in people's words, IST times, references and the
 *   running balance (user-statements/statement-csv.ts);
 * - statement.pdf: summary and the same lines, in English or Hindi (`lang`;
 *   user-statements/statement-pdf.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { rupeesFromPaise } from '../../contracts/money.ts';
import {
  dayEnd,
  dayStart,
  STATEMENT_TIME_ZONE,
  statementChartsSchema,
  statementPdfQuerySchema,
  statementPeriodSchema,
  type StatementCharts,
  type StatementPeriodQuery,
} from '../../contracts/statements.ts';
import { dailyClosingBalances, monthlyTotals, periodSummary, readStatementDays } from '../../projections/index.ts';
import { ownStatementCsv, statementPdf } from '../../user-statements/index.ts';
import { requireUser } from '../auth/authenticate.ts';
import { fileReply, routeSchema, withData, type ReplyDoc } from '../docs.ts';
import { ok } from '../envelope.ts';
import type { MoneyDependencies } from '../money-context.ts';
import type { ZodRoutes, ZodTypeProvider } from '../request-validation.ts';

type StatementDependencies = Pick<MoneyDependencies, 'db' | 'reads'>;

const PERIOD_HELP =
  "Query: from, to (YYYY-MM-DD, India Standard Time days, both included; at most 366 days). Always the signed-in user's own wallet.";

function userRoute<Query extends typeof statementPeriodSchema | typeof statementPdfQuerySchema>(
  app: ZodRoutes,
  summary: string,
  description: string,
  success: ReplyDoc,
  querystring: Query,
) {
  return {
    preValidation: app.authenticate,
    ...routeSchema({
      tags: ['transactions'],
      summary,
      description: `${description} ${PERIOD_HELP}`,
      querystring,
      replies: { 200: success },
    }),
  };
}

function download(reply: FastifyReply, type: string, period: StatementPeriodQuery, extension: string): void {
  reply.header('content-type', type);
  reply.header('content-disposition', `attachment; filename="statement-${period.from}-to-${period.to}.${extension}"`);
  reply.header('cache-control', 'no-store');
}

export function registerStatementRoutes(server: FastifyInstance, deps: StatementDependencies): void {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/transactions/statement/charts',
    userRoute(
      app,
      'Your balance and money in / out for a period',
      'Daily closing balances and monthly totals, in rupees.',
      withData(statementChartsSchema, "The period's balances and totals"),
      statementPeriodSchema,
    ),
    async (request, reply) => {
      const user = await requireUser(request);
      const period = request.query;
      const days = await deps.reads.read('statement_days', (reads) =>
        readStatementDays(reads, { accountId: user.id, ...period }),
      );
      const summary = periodSummary(days);
      const charts: StatementCharts = {
        from: period.from,
        to: period.to,
        timeZone: STATEMENT_TIME_ZONE,
        openingBalance: rupeesFromPaise(summary.openingBalancePaise),
        closingBalance: rupeesFromPaise(summary.closingBalancePaise),
        moneyIn: rupeesFromPaise(summary.moneyInPaise),
        moneyOut: rupeesFromPaise(summary.moneyOutPaise),
        daily: dailyClosingBalances(period, days).map((day) => ({
          date: day.day,
          balance: rupeesFromPaise(day.closingBalancePaise),
        })),
        monthly: monthlyTotals(period, days).map((month) => ({
          month: month.month,
          moneyIn: rupeesFromPaise(month.moneyInPaise),
          moneyOut: rupeesFromPaise(month.moneyOutPaise),
        })),
      };
      return ok(reply, 'Statement fetched', charts);
    },
  );

  app.get(
    '/api/transactions/statement.csv',
    userRoute(
      app,
      'Your statement as CSV',
      'Every posting of the period: IST time, description, reference, transaction id, debit, credit and running balance (streamed; UTF-8 with a byte order mark).',
      fileReply('text/csv', 'The statement, one line per posting'),
      statementPeriodSchema,
    ),
    async (request, reply) => {
      const user = await requireUser(request);
      const period = request.query;
      download(reply, 'text/csv; charset=utf-8', period, 'csv');
      return reply.send(
        ownStatementCsv(deps.db, { accountId: user.id, from: dayStart(period.from), to: dayEnd(period.to) }),
      );
    },
  );

  app.get(
    '/api/transactions/statement.pdf',
    userRoute(
      app,
      'Your statement as PDF',
      'Opening and closing balance, money in and out, and every transaction, worded in English or Hindi (lang).',
      fileReply('application/pdf', 'The statement as a PDF document'),
      statementPdfQuerySchema,
    ),
    async (request, reply) => {
      const user = await requireUser(request);
      const { lang, ...period } = request.query;
      // The daily figures, which no payment's reply waits for: caught up first, as `reads.read` does.
      await deps.reads.catchUp('statement_days');
      const pdf = await statementPdf(deps.db, { accountId: user.id, ...period, language: lang });
      download(reply, 'application/pdf', period, 'pdf');
      return reply.send(pdf);
    },
  );
}
