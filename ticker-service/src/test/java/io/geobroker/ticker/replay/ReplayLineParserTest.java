package io.geobroker.ticker.replay;

import io.geobroker.domain.SymbolDirectory;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayLineParserTest {

    private final ReplayLineParser parser = new ReplayLineParser(SymbolDirectory.standard(), List.of("NYSE", "NASDAQ"), 100);

    @Test
    void numbers_lines_without_a_sequence_per_symbol_from_the_start() {
        assertThat(parser.parse("AAPL,19000,300")).isEqualTo(new ReplayLineParser.Valid("AAPL", "NASDAQ", 19000, 300, 100));
        assertThat(parser.parse(" AAPL , 19001 , 5 ,")).isEqualTo(new ReplayLineParser.Valid("AAPL", "NASDAQ", 19001, 5, 101));
        assertThat(parser.parse("MSFT,41500,1")).isEqualTo(new ReplayLineParser.Valid("MSFT", "NASDAQ", 41500, 1, 100));
    }

    @Test
    void keeps_a_given_sequence_if_it_increases() {
        assertThat(parser.parse("AAPL,19000,300,7")).isEqualTo(new ReplayLineParser.Valid("AAPL", "NASDAQ", 19000, 300, 7));
        assertThat(parser.parse("AAPL,19000,300")).isEqualTo(new ReplayLineParser.Valid("AAPL", "NASDAQ", 19000, 300, 8));
        assertThat(parser.parse("AAPL,19000,300,8")).isEqualTo(
                new ReplayLineParser.Invalid("sequence 8 of AAPL does not increase (previous 8)"));
    }

    @Test
    void ignores_blank_lines_comments_and_the_header() {
        assertThat(parser.parse("")).isInstanceOf(ReplayLineParser.Ignored.class);
        assertThat(parser.parse("   ")).isInstanceOf(ReplayLineParser.Ignored.class);
        assertThat(parser.parse("# a comment")).isInstanceOf(ReplayLineParser.Ignored.class);
        assertThat(parser.parse("symbol,price,volume,sequence")).isInstanceOf(ReplayLineParser.Ignored.class);
    }

    @Test
    void says_why_a_line_is_malformed() {
        assertThat(reason("AAPL,19000")).isEqualTo("expected 3 or 4 fields (symbol,price,volume[,sequence]), found 2");
        assertThat(reason("AAPL,1,2,3,4")).isEqualTo("expected 3 or 4 fields (symbol,price,volume[,sequence]), found 5");
        assertThat(reason("NOPE,100,1")).isEqualTo("unknown symbol 'NOPE'");
        assertThat(reason("BHP,4500,1")).isEqualTo("BHP is listed on ASX, which this instance does not publish");
        assertThat(reason("AAPL,190.00,1")).startsWith("price '190.00' is not a positive multiple of AAPL's tick size");
        assertThat(reason("AAPL,-5,1")).startsWith("price '-5' is not a positive multiple");
        assertThat(reason("AAPL,19000,0")).isEqualTo("volume '0' is not a positive whole number of shares");
        assertThat(reason("AAPL,19000,x")).isEqualTo("volume 'x' is not a positive whole number of shares");
        assertThat(reason("AAPL,19000,1,-1")).isEqualTo("sequence '-1' is not a whole number >= 0");
    }

    @Test
    void a_malformed_line_does_not_use_up_a_sequence() {
        reason("AAPL,19000,0");
        assertThat(parser.parse("AAPL,19000,1")).isEqualTo(new ReplayLineParser.Valid("AAPL", "NASDAQ", 19000, 1, 100));
    }

    private String reason(String line) {
        ReplayLineParser.Result result = parser.parse(line);
        assertThat(result).isInstanceOf(ReplayLineParser.Invalid.class);
        return ((ReplayLineParser.Invalid) result).reason();
    }
}
