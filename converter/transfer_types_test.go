package converter_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/durable-go/sdk/converter"
)

// money is a model type sent as its wire form, a string.
type money struct{ cents int64 }

type moneyWire struct {
	Amount string `json:"amount"`
}

func (money) TransferTypeConverter() (converter.TransferTypeConverter, error) {
	return converter.NewTransferTypeConverter(
		func(m *money) (*moneyWire, error) {
			if m.cents < 0 {
				return nil, errors.New("negative amounts are not sent")
			}
			return &moneyWire{Amount: fmt.Sprintf("%d.%02d", m.cents/100, m.cents%100)}, nil
		},
		func(w *moneyWire, m *money) error {
			var units, cents int64
			if _, err := fmt.Sscanf(w.Amount, "%d.%d", &units, &cents); err != nil {
				return err
			}
			m.cents = units*100 + cents
			return nil
		})
}

func TestTransferTypesAreSentAsTheirTransferValue(t *testing.T) {
	zlib := converter.NewZlibCodec(converter.ZlibCodecOptions{})
	for name, dc := range map[string]converter.DataConverter{
		"default": converter.GetDefaultDataConverter(),
		"codec":   converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), zlib),
	} {
		t.Run(name, func(t *testing.T) {
			for _, value := range []any{money{1234}, &money{1234}} {
				payload, err := dc.ToPayload(value)
				if err != nil {
					t.Fatal(err)
				}
				var wire moneyWire
				if err := dc.FromPayload(payload, &wire); err != nil || wire.Amount != "12.34" {
					t.Errorf("%T was sent as %+v (%v), want its transfer value", value, wire, err)
				}
				var back money
				if err := dc.FromPayload(payload, &back); err != nil || back.cents != 1234 {
					t.Errorf("%T came back as %+v, %v", value, back, err)
				}
			}
			payloads, err := dc.ToPayloads("note", money{5})
			if err != nil {
				t.Fatal(err)
			}
			var note string
			var m money
			if err := dc.FromPayloads(payloads, &note, &m); err != nil || note != "note" || m.cents != 5 {
				t.Errorf("payloads came back as %q, %+v, %v", note, m, err)
			}
			if _, err := dc.ToPayload(money{-1}); err == nil || !strings.Contains(err.Error(), "negative amounts") {
				t.Errorf("the conversion's error: %v", err)
			}
		})
	}
}

type pointerModel struct{}

func (pointerModel) TransferTypeConverter() (converter.TransferTypeConverter, error) {
	return converter.NewTransferTypeConverter(
		func(*pointerModel) (**moneyWire, error) { return nil, nil },
		func(**moneyWire, *pointerModel) error { return nil })
}

func TestTransferTypesMustNotBePointers(t *testing.T) {
	_, err := pointerModel{}.TransferTypeConverter()
	if err == nil || !strings.Contains(err.Error(), "must not be a pointer") {
		t.Fatalf("error %v", err)
	}
	if _, err := converter.GetDefaultDataConverter().ToPayload(pointerModel{}); err == nil || !strings.Contains(err.Error(), "must not be a pointer") {
		t.Errorf("encoding with a bad converter: %v", err)
	}
}
