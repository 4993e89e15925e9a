import { type Balance, type Invoice, type Order } from '../api/models';
import { type ZoneOffset, dayOfInstant, systemZone } from '../util/calendar';
import { DEFAULT_WARNING_DAYS, forecast } from './forecast';
import { type Forecast } from './types';

export interface ForecastInputs {
  readonly balance: Balance | undefined;
  readonly orders: readonly Order[];
  readonly invoices: readonly Invoice[] | undefined;
}

const NO_INVOICES: readonly Invoice[] = [];

// The store replaces a value it reads again, never edits it, so the values themselves are the key.
export class ForecastMemo {
  private last?: {
    readonly balance: Balance | undefined;
    readonly orders: readonly Order[];
    readonly invoices: readonly Invoice[];
    readonly day: number;
    readonly warningDays: number;
    readonly forecast: Forecast;
  };

  constructor(private readonly zone: ZoneOffset = systemZone) {}

  get(inputs: ForecastInputs, now: number, warningDays = DEFAULT_WARNING_DAYS): Forecast {
    const invoices = inputs.invoices ?? NO_INVOICES;
    const day = dayOfInstant(now, this.zone);
    const last = this.last;
    if (
      last &&
      last.balance === inputs.balance &&
      last.orders === inputs.orders &&
      last.invoices === invoices &&
      last.day === day &&
      last.warningDays === warningDays
    ) {
      return last.forecast;
    }
    const made = forecast(inputs.balance, inputs.orders, invoices, now, { zone: this.zone, warningDays });
    this.last = { balance: inputs.balance, orders: inputs.orders, invoices, day, warningDays, forecast: made };
    return made;
  }
}
