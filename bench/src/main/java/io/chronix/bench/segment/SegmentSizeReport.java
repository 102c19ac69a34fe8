package io.chronix.bench.segment;

import io.chronix.bench.generator.TsbsValueSets;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.segment.SegmentFormat;
import io.chronix.engine.segment.SegmentMeta;
import io.chronix.engine.segment.SegmentWriter;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.segment.encoding.Encodings;
import io.chronix.engine.segment.encoding.FloatEncoder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Bytes per field value on disk for TSBS cpu-only data (deterministic: a size, not a timing).
 * Writes one segment per variant and codec and prints, per variant: the whole file over the field
 * values (time, tags and metadata included), the field blocks alone, and the encoding chosen.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.chronix.bench.segment.SegmentSizeReport [hosts] [hours]</pre>
 */
public final class SegmentSizeReport {

    private SegmentSizeReport() {
    }

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int hours = args.length > 1 ? Integer.parseInt(args[1]) : 24;
        Path dir = Files.createTempDirectory("segsize");
        System.out.printf("TSBS cpu-only, %d hosts, %d h at 10 s, seed 123: %d rows, %d field values%n", hosts, hours,
                (long) hosts * hours * 360, (long) hosts * hours * 360 * 10);
        System.out.println("variant\tcodec\tfile B/value\tfields B/value\ttime B/row\ttags B/row\tfloat encodings");
        int counter = 0;
        for (String variant : List.of("integer", "float", "integer-as-float")) {
            TsbsSegmentData d = TsbsSegmentData.generate(hosts, Duration.ofHours(hours), 123, !variant.equals("float"));
            SegmentColumns cols = variant.equals("integer-as-float") ? asFloats(d) : d.columns();
            for (String codec : List.of("none", "lz4", "zstd", "zstd+dict", "none/gorilla-only", "none/alp-or-gorilla (v1)",
                    "none/alp-rd-only")) {
                SegmentWriterConfig c = SegmentWriterConfig.defaults();
                c = switch (codec) {
                    case "none" -> c.withCompression(SegmentFormat.COMPRESSION_NONE);
                    case "lz4" -> c;
                    case "zstd" -> c.withZstd(3, false);
                    case "zstd+dict" -> c.withZstd(3, true);
                    case "none/gorilla-only" -> c.withCompression(SegmentFormat.COMPRESSION_NONE).withFloatPolicy(FloatEncoder.Policy.GORILLA);
                    case "none/alp-or-gorilla (v1)" -> c.withCompression(SegmentFormat.COMPRESSION_NONE)
                            .withFloatPolicy(FloatEncoder.Policy.ALP_OR_GORILLA);
                    default -> c.withCompression(SegmentFormat.COMPRESSION_NONE).withFloatPolicy(FloatEncoder.Policy.ALP_RD);
                };
                SegmentFile file = SegmentFile.of(0, 1, ++counter);
                SegmentMeta m = SegmentWriter.write(NioFileIO.INSTANCE, dir.resolve("tmp"), dir.resolve("segments"), file, cols, c, 0).meta();
                long fieldBytes = 0;
                long timeBytes = 0;
                long tagBytes = 0;
                int alp = 0;
                int alpRd = 0;
                int gorilla = 0;
                for (SegmentMeta.RowGroup g : m.rowGroups()) {
                    for (int k = 0; k < m.columns().size(); k++) {
                        SegmentMeta.Block b = g.blocks().get(k);
                        long bytes = b.storedLength() + b.validityLength();
                        switch (m.columns().get(k).role()) {
                            case TIME -> timeBytes += bytes;
                            case TAG -> tagBytes += bytes;
                            case FIELD -> {
                                fieldBytes += bytes;
                                switch (b.encoding()) {
                                    case Encodings.ALP -> alp++;
                                    case Encodings.ALP_RD -> alpRd++;
                                    case Encodings.GORILLA -> gorilla++;
                                    default -> {
                                    }
                                }
                            }
                        }
                    }
                }
                long values = d.fieldValues();
                System.out.printf("%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%s%n", variant, codec, (double) m.fileSize() / values,
                        (double) fieldBytes / values, (double) timeBytes / d.rows, (double) tagBytes / d.rows,
                        alp + alpRd + gorilla == 0 ? "-" : "alp " + alp + ", alp-rd " + alpRd + ", gorilla " + gorilla);
                Files.delete(file.resolve(dir.resolve("segments")));
                Files.deleteIfExists(file.resolveSidecar(dir.resolve("segments")));
            }
        }
    }

    private static SegmentColumns asFloats(TsbsSegmentData d) {
        double[][] f = d.integersAsFloats();
        SegmentColumns.Builder b = SegmentColumns.builder(TsbsValueSets.MEASUREMENT, d.rows).time(d.time);
        for (int k = 0; k < TsbsSegmentData.SORT_ORDER.size(); k++) {
            b.tag(TsbsSegmentData.SORT_ORDER.get(k), d.tags[k]);
        }
        for (int k = 0; k < f.length; k++) {
            b.floatField(TsbsValueSets.FIELDS.get(k), f[k], null);
        }
        return b.build();
    }
}
