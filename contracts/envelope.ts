/**
 * The reply envelope of every API response, errors included (spec section 7).
 */
export interface Envelope<Data = unknown> {
  success: boolean;
  message: string;
  code?: string;
  data?: Data;
}
