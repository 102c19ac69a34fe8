package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** One named case per rule of the line protocol; each builds the batch it expects by hand. */
class LineProtocolParserTest {

    static final long NOW = 1_700_000_000_123_456_789L;

    private static Arguments ok(String name, String input, Consumer<PointBatch.Builder> expected) {
        return ok(name, input, Precision.NANOSECONDS, expected);
    }

    private static Arguments ok(String name, String input, Precision precision, Consumer<PointBatch.Builder> expected) {
        PointBatch.Builder b = PointBatch.builder();
        expected.accept(b);
        return arguments(Named.of(name, input), precision, b.build());
    }

    static Stream<Arguments> valid() {
        return Stream.of(
                ok("minimal point", "cpu value=1 10", b -> b.beginPoint("cpu", 10).floatField("value", 1).endPoint()),
                ok("tags sorted and fields sorted", "cpu,z=1,a=2 y=1i,b=2i 10",
                        b -> b.beginPoint("cpu", 10).tag("a", "2").tag("z", "1").integerField("b", 2).integerField("y", 1).endPoint()),
                ok("missing timestamp takes receipt time", "cpu v=1",
                        b -> b.beginPoint("cpu", NOW).floatField("v", 1).endPoint()),
                ok("missing timestamp truncated to the precision", "cpu v=1", Precision.SECONDS,
                        b -> b.beginPoint("cpu", NOW / 1_000_000_000L * 1_000_000_000L).floatField("v", 1).endPoint()),
                ok("negative timestamp", "cpu v=1 -5", b -> b.beginPoint("cpu", -5).floatField("v", 1).endPoint()),
                ok("precision us", "cpu v=1 7", Precision.MICROSECONDS, b -> b.beginPoint("cpu", 7_000).floatField("v", 1).endPoint()),
                ok("precision ms", "cpu v=1 7", Precision.MILLISECONDS, b -> b.beginPoint("cpu", 7_000_000).floatField("v", 1).endPoint()),
                ok("precision s", "cpu v=1 7", Precision.SECONDS, b -> b.beginPoint("cpu", 7_000_000_000L).floatField("v", 1).endPoint()),
                ok("integer", "m a=-42i,b=9223372036854775807i,c=-9223372036854775808i 1",
                        b -> b.beginPoint("m", 1).integerField("a", -42).integerField("b", Long.MAX_VALUE).integerField("c", Long.MIN_VALUE).endPoint()),
                ok("unsigned", "m a=0u,b=18446744073709551615u 1",
                        b -> b.beginPoint("m", 1).unsignedField("a", 0).unsignedField("b", -1L).endPoint()),
                ok("floats of every shape", "m a=1,b=-1.5,c=.5,d=1.,e=1e3,f=1.5E-3,g=-2e+2,h=0.000001,i=-0 1",
                        b -> b.beginPoint("m", 1).floatField("a", 1).floatField("b", -1.5).floatField("c", .5).floatField("d", 1)
                                .floatField("e", 1e3).floatField("f", 1.5e-3).floatField("g", -200).floatField("h", 1e-6)
                                .floatField("i", -0.0).endPoint()),
                ok("floats beyond the fast path", "m a=1.7976931348623157e308,b=4.9e-324,c=0.30000000000000004,d=123456789012345678901234567890 1",
                        b -> b.beginPoint("m", 1).floatField("a", Double.MAX_VALUE).floatField("b", Double.MIN_VALUE)
                                .floatField("c", 0.30000000000000004).floatField("d", 123456789012345678901234567890.0).endPoint()),
                ok("booleans in every spelling", "m a=t,b=T,c=true,d=True,e=TRUE,f=f,g=F,h=false,i=False,j=FALSE 1",
                        b -> b.beginPoint("m", 1).booleanField("a", true).booleanField("b", true).booleanField("c", true)
                                .booleanField("d", true).booleanField("e", true).booleanField("f", false).booleanField("g", false)
                                .booleanField("h", false).booleanField("i", false).booleanField("j", false).endPoint()),
                ok("string with escapes", "m s=\"say \\\"hi\\\" \\\\ back\\slash, a=b\" 1",
                        b -> b.beginPoint("m", 1).stringField("s", "say \"hi\" \\ back\\slash, a=b").endPoint()),
                ok("empty string", "m s=\"\" 1", b -> b.beginPoint("m", 1).stringField("s", "").endPoint()),
                ok("string spanning lines", "m s=\"a\nb\" 1\nm v=2 2",
                        b -> b.beginPoint("m", 1).stringField("s", "a\nb").endPoint().beginPoint("m", 2).floatField("v", 2).endPoint()),
                ok("escaped measurement", "my\\ cpu\\,x=y v=1 1", b -> b.beginPoint("my cpu,x=y", 1).floatField("v", 1).endPoint()),
                ok("escaped tag key and value", "m,k\\ e\\,y\\==v\\ a\\,l\\=ue v=1 1",
                        b -> b.beginPoint("m", 1).tag("k e,y=", "v a,l=ue").floatField("v", 1).endPoint()),
                ok("escaped field key", "m f\\ i\\,e\\=ld=1 1", b -> b.beginPoint("m", 1).floatField("f i,e=ld", 1).endPoint()),
                ok("backslashes: \\\\ is one, a lone one is itself", "m\\\\x,t=a\\b\\\\ v=1 1",
                        b -> b.beginPoint("m\\x", 1).tag("t", "a\\b\\").floatField("v", 1).endPoint()),
                ok("comments and blank lines", "# a comment\n\n   \ncpu v=1 1\n  # indented comment\n",
                        b -> b.beginPoint("cpu", 1).floatField("v", 1).endPoint()),
                ok("CRLF line ends", "cpu v=1 1\r\ncpu v=2 2\r\n",
                        b -> b.beginPoint("cpu", 1).floatField("v", 1).endPoint().beginPoint("cpu", 2).floatField("v", 2).endPoint()),
                ok("no final newline, leading and extra whitespace", "  cpu,h=a  v=1  5 \t",
                        b -> b.beginPoint("cpu", 5).tag("h", "a").floatField("v", 1).endPoint()),
                ok("UTF-8 names and values", "température,ville=Zürich °C=21.5,note=\"☀ 晴\" 1",
                        b -> b.beginPoint("température", 1).tag("ville", "Zürich").floatField("°C", 21.5).stringField("note", "☀ 晴").endPoint()),
                ok("= in a measurement is literal", "a=b v=1 1", b -> b.beginPoint("a=b", 1).floatField("v", 1).endPoint()),
                ok("tab inside a tag value is literal", "m,t=a\tb v=1 1", b -> b.beginPoint("m", 1).tag("t", "a\tb").floatField("v", 1).endPoint()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void parsesValidInput(String input, Precision precision, PointBatch expected) {
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = new LineProtocolParser().parse(input.getBytes(StandardCharsets.UTF_8), precision, NOW, into);
        assertThat(r.errors()).isEmpty();
        PointBatch got = into.build();
        assertThat(got).isEqualTo(expected);
        assertThat(r.points()).isEqualTo(expected.size());
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                bad("no fields", "cpu", 1, 4, "expected a space and a field set"),
                bad("no fields after tags", "cpu,h=a ", 1, 9, "expected a field set"),
                bad("empty measurement", ",h=a v=1", 1, 1, "expected a measurement name"),
                bad("leading blanks are skipped, so this is a measurement", " v=1", 1, 5, "expected a space and a field set"),
                bad("tag without =", "cpu,host v=1", 1, 9, "expected '=' after tag key"),
                bad("empty tag key", "cpu,=a v=1", 1, 5, "expected a tag key"),
                bad("empty tag value", "cpu,h= v=1", 1, 7, "expected a tag value"),
                bad("unescaped = in tag value", "cpu,h=a=b v=1", 1, 8, "'=' in a tag value"),
                bad("field without =", "cpu value 1", 1, 10, "expected '=' after field key"),
                bad("empty field key", "cpu =1", 1, 5, "expected a field key"),
                bad("empty field value", "cpu v= 1", 1, 7, "expected a field value"),
                bad("field value at line end", "cpu v=", 1, 7, "expected a field value"),
                bad("trailing comma in fields", "cpu v=1, 1", 1, 9, "expected a field key"),
                bad("bad field value", "cpu v=abc 1", 1, 7, "expected a field value"),
                bad("bad boolean", "cpu v=tru 1", 1, 7, "expected a boolean"),
                bad("number with junk", "cpu v=1.5x 1", 1, 10, "expected ',' or ' ' after the number"),
                bad("float with i after dot", "cpu v=1.5i 1", 1, 10, "expected ',' or ' ' after the number"),
                bad("lone minus", "cpu v=- 1", 1, 8, "expected digits"),
                bad("exponent without digits", "cpu v=1e 1", 1, 9, "expected digits in the exponent"),
                bad("integer overflow", "cpu v=9223372036854775808i 1", 1, 7, "integer out of range"),
                bad("integer underflow", "cpu v=-9223372036854775809i 1", 1, 7, "integer out of range"),
                bad("unsigned overflow", "cpu v=18446744073709551616u 1", 1, 7, "unsigned integer out of range"),
                bad("negative unsigned", "cpu v=-1u 1", 1, 7, "cannot be negative"),
                bad("float overflow", "cpu v=1e400 1", 1, 7, "float out of range"),
                bad("unterminated string", "cpu s=\"abc 1\ncpu v=1 2", 1, 7, "closing '\"'"),
                bad("bad timestamp", "cpu v=1 12x", 1, 11, "expected the end of the line after the timestamp"),
                bad("timestamp not a number", "cpu v=1 abc", 1, 9, "expected a timestamp"),
                bad("junk after timestamp", "cpu v=1 12 13", 1, 12, "expected the end of the line"),
                bad("timestamp overflow in ns", "cpu v=1 9223372036854775808", 1, 9, "timestamp out of range"),
                bad("duplicate field", "cpu a=1,a=2 1", 1, 9, "duplicate field name"),
                bad("duplicate tag", "cpu,h=a,h=b v=1 1", 1, 9, "duplicate tag key"),
                bad("invalid UTF-8", "cpu,h=\u00ff v=1 1", 1, 7, "expected valid UTF-8"),
                bad("column counts characters, not bytes", "zürich,h= v=1", 1, 10, "expected a tag value"),
                bad("error on a later line", "cpu v=1 1\n# c\ncpu v=x 2", 3, 7, "expected a field value"));
    }

    private static Arguments bad(String name, String input, int line, int column, String message) {
        return arguments(Named.of(name, input), line, column, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void reportsLineColumnAndWhatWasExpected(String input, int line, int column, String message) {
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        if (input.contains("\u00ff")) {
            bytes = input.replace('\u00ff', '\u0001').getBytes(StandardCharsets.UTF_8);
            bytes[input.indexOf('\u00ff')] = (byte) 0xFF;
        }
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = new LineProtocolParser().parse(bytes, Precision.NANOSECONDS, NOW, into);
        assertThat(r.rejected()).isEqualTo(1);
        assertThat(r.errors()).hasSize(1);
        LineError e = r.errors().getFirst();
        assertThat(e.message()).contains(message);
        assertThat(e.line()).as("line").isEqualTo(line);
        assertThat(e.column()).as("column").isEqualTo(column);
    }

    @Test
    void aBadLineDoesNotStopTheOthers() {
        String body = "cpu v=1 1\ncpu v= 2\ncpu v=3 3\n";
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, NOW, into);
        assertThat(r.lines()).isEqualTo(3);
        assertThat(r.points()).isEqualTo(2);
        assertThat(r.lineOfPoint(0)).isEqualTo(1);
        assertThat(r.lineOfPoint(1)).isEqualTo(3);
        assertThat(into.build().timestamp(1)).isEqualTo(3);
    }

    @Test
    void reportsAtMostOneHundredErrorsButCountsAll() {
        String body = "bad\n".repeat(250);
        ParseResult r = new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, NOW,
                PointBatch.builder());
        assertThat(r.rejected()).isEqualTo(250);
        assertThat(r.errors()).hasSize(LineProtocolParser.MAX_REPORTED_ERRORS);
        assertThat(r.errors().get(99).line()).isEqualTo(100);
    }

    @Test
    void lineNumbersCountNewlinesInsideStrings() {
        String body = "m s=\"a\nb\nc\" 1\nm v= 2";
        ParseResult r = new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, NOW,
                PointBatch.builder());
        assertThat(r.errors()).singleElement().extracting(LineError::line).isEqualTo(4);
    }

    @Test
    void precisionSpellingsOfBothApis() {
        assertThat(Precision.parse("ns")).contains(Precision.NANOSECONDS);
        assertThat(Precision.parse("n")).contains(Precision.NANOSECONDS);
        assertThat(Precision.parse("us")).contains(Precision.MICROSECONDS);
        assertThat(Precision.parse("u")).contains(Precision.MICROSECONDS);
        assertThat(Precision.parse("ms")).contains(Precision.MILLISECONDS);
        assertThat(Precision.parse("s")).contains(Precision.SECONDS);
        assertThat(Precision.parse("h")).isEmpty();
        assertThat(Precision.parse("x")).isEmpty();
    }

    @Test
    void aReusedBuilderAndParserAllocateNoNewStringsForRepeatedNames() {
        PointBatch.Builder into = PointBatch.builder();
        LineProtocolParser p = new LineProtocolParser();
        byte[] body = "cpu,host=a usage=1 1\ncpu,host=a usage=2 2\n".getBytes(StandardCharsets.UTF_8);
        p.parse(body, Precision.NANOSECONDS, NOW, into);
        PointBatch batch = into.build();
        assertThat(batch.stringCount()).as("cpu, host, a, usage once each").isEqualTo(4);
        into.reset();
        p.parse(body, Precision.NANOSECONDS, NOW, into);
        assertThat(into.build()).isEqualTo(batch);
    }
}
