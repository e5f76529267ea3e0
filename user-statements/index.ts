/**
 * The public entry of user-statements/: what a user downloads of their own wallet - the
 * statement of a period as CSV and as PDF, and one payment's receipt as PDF - worded the same
 * way in each (./statement-words.ts). No HTTP here (api/routes/statements.ts and
 * api/routes/transaction-detail.ts serve them), and nothing of an admin's: the admins' reads
 * and exports are audit/'s, which writes its CSVs by the cell rules exported here.
 *
 * Named for whom it serves, not "statements": the statements' rows are the projections'
 * (read.statement_lines, the accounts projection's; read.statement_days, projection
 * "statement_days", the daily summaries a PDF's period totals come from), and these files only
 * read them; they write none.
 */

export { statementPdf, MAX_PDF_LINES, type StatementPdfRequest } from './statement-pdf.ts';
export { receiptPdf, type ReceiptPdfRequest } from './receipt-pdf.ts';
export {
  ownStatementCsv,
  BYTE_ORDER_MARK,
  CSV_BATCH_ROWS,
  PEOPLE_CSV_COLUMNS,
  spreadsheetSafe,
  type OwnStatementRequest,
} from './statement-csv.ts';
export { describeLine, istTime, rupeeText, type DescribedLine } from './statement-words.ts';
