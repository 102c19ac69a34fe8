package io.chronix.bench.cli;

import io.chronix.bench.e2e.EndToEndCommand;
import io.chronix.bench.generator.GenerateCommand;
import io.chronix.bench.live.LiveCommand;
import io.chronix.bench.load.LoadCommand;
import io.chronix.bench.peer.PeerCommand;
import io.chronix.bench.query.QueryCommand;
import io.chronix.bench.crash.CrashCommand;
import io.chronix.bench.stall.StallCommand;

import java.util.Arrays;

/**
 * {@code java -cp benchmarks.jar io.chronix.bench.cli.Bench <tool> [--options]}: the benchmark tools.
 * JMH itself is the jar's main class ({@code java -jar benchmarks.jar}).
 */
public final class Bench {
    private Bench() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: Bench generate|load|query|peer|e2e|crash|stall|live [--options]  (see bench/README.md)");
            System.exit(2);
        }
        Options o = Options.parse(Arrays.copyOfRange(args, 1, args.length));
        try {
            switch (args[0]) {
                case "generate" -> GenerateCommand.run(o);
                case "load" -> LoadCommand.run(o);
                case "query" -> QueryCommand.run(o);
                case "peer" -> PeerCommand.run(o);
                case "e2e" -> EndToEndCommand.run(o);
                case "crash" -> CrashCommand.run(o);
                case "stall" -> StallCommand.run(o);
                case "live" -> LiveCommand.run(o);
                default -> throw new IllegalArgumentException("unknown tool '" + args[0] + "'");
            }
        } catch (Exception e) {
            System.err.println("bench " + args[0] + " failed: " + e.getMessage());
            if (Boolean.getBoolean("bench.trace")) {
                e.printStackTrace();
            }
            System.exit(1);
        }
    }
}
