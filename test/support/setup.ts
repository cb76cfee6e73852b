// Runs before every test file: new member passwords hash at a low scrypt cost in the test process
// (the suite signs in thousands of times; at the service's cost each one takes tens of
// milliseconds of CPU). core/passwords.test.ts checks the service's own cost; processes the tests
// start (`packline start`) keep it.
import { type PasswordCost, setPasswordCost } from '../../core/passwords.ts';

export const TEST_PASSWORD_COST: PasswordCost = { N: 2 ** 10, r: 8, p: 1 };

setPasswordCost(TEST_PASSWORD_COST);
