// Command schema-provider is a Terraform provider that serves a captured provider schema and
// nothing else. It lets `terraform validate` and `terraform test` with `mock_provider` run where
// the Terraform registry cannot be reached: Terraform needs a provider's schema even when every
// resource is mocked. It checks argument names, nesting and types, not the real provider's value
// validation, and it refuses to plan or apply anything.
//
// The schema is the output of `terraform providers schema -json` for the real provider, embedded
// gzip-compressed at build time.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

//go:embed aws-provider-6.48.0-schema.json.gz
var schemaGz []byte

const providerAddress = "registry.terraform.io/hashicorp/aws"

type jsonSchemas struct {
	ProviderSchemas map[string]struct {
		Provider          jsonSchema                 `json:"provider"`
		ResourceSchemas   map[string]json.RawMessage `json:"resource_schemas"`
		DataSourceSchemas map[string]json.RawMessage `json:"data_source_schemas"`
	} `json:"provider_schemas"`
}

type jsonSchema struct {
	Version int64     `json:"version"`
	Block   jsonBlock `json:"block"`
}

type jsonBlock struct {
	Attributes      map[string]jsonAttribute   `json:"attributes"`
	BlockTypes      map[string]jsonNestedBlock `json:"block_types"`
	Description     string                     `json:"description"`
	DescriptionKind string                     `json:"description_kind"`
	Deprecated      bool                       `json:"deprecated"`
}

type jsonAttribute struct {
	Type            json.RawMessage `json:"type"`
	NestedType      *jsonObject     `json:"nested_type"`
	Description     string          `json:"description"`
	DescriptionKind string          `json:"description_kind"`
	Required        bool            `json:"required"`
	Optional        bool            `json:"optional"`
	Computed        bool            `json:"computed"`
	Sensitive       bool            `json:"sensitive"`
	Deprecated      bool            `json:"deprecated"`
	WriteOnly       bool            `json:"write_only"`
}

type jsonObject struct {
	Attributes  map[string]jsonAttribute `json:"attributes"`
	NestingMode string                   `json:"nesting_mode"`
}

type jsonNestedBlock struct {
	NestingMode string    `json:"nesting_mode"`
	Block       jsonBlock `json:"block"`
	MinItems    int64     `json:"min_items"`
	MaxItems    int64     `json:"max_items"`
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func descriptionKind(kind string) tfprotov6.StringKind {
	if kind == "markdown" {
		return tfprotov6.StringKindMarkdown
	}
	return tfprotov6.StringKindPlain
}

func convertAttributes(attrs map[string]jsonAttribute) ([]*tfprotov6.SchemaAttribute, error) {
	out := make([]*tfprotov6.SchemaAttribute, 0, len(attrs))
	for _, name := range sortedKeys(attrs) {
		a := attrs[name]
		attr := &tfprotov6.SchemaAttribute{
			Name:            name,
			Description:     a.Description,
			DescriptionKind: descriptionKind(a.DescriptionKind),
			Required:        a.Required,
			Optional:        a.Optional,
			Computed:        a.Computed,
			Sensitive:       a.Sensitive,
			Deprecated:      a.Deprecated,
			WriteOnly:       a.WriteOnly,
		}
		if a.NestedType != nil {
			nested, err := convertAttributes(a.NestedType.Attributes)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			modes := map[string]tfprotov6.SchemaObjectNestingMode{
				"single": tfprotov6.SchemaObjectNestingModeSingle,
				"list":   tfprotov6.SchemaObjectNestingModeList,
				"set":    tfprotov6.SchemaObjectNestingModeSet,
				"map":    tfprotov6.SchemaObjectNestingModeMap,
			}
			mode, ok := modes[a.NestedType.NestingMode]
			if !ok {
				return nil, fmt.Errorf("%s: unknown nesting mode %q", name, a.NestedType.NestingMode)
			}
			attr.NestedType = &tfprotov6.SchemaObject{Attributes: nested, Nesting: mode}
		} else {
			t, err := tftypes.ParseJSONType(a.Type) //nolint:staticcheck // the schema JSON carries cty types
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			attr.Type = t
		}
		out = append(out, attr)
	}
	return out, nil
}

func convertBlock(b jsonBlock) (*tfprotov6.SchemaBlock, error) {
	attrs, err := convertAttributes(b.Attributes)
	if err != nil {
		return nil, err
	}
	block := &tfprotov6.SchemaBlock{
		Attributes:      attrs,
		Description:     b.Description,
		DescriptionKind: descriptionKind(b.DescriptionKind),
		Deprecated:      b.Deprecated,
	}
	modes := map[string]tfprotov6.SchemaNestedBlockNestingMode{
		"single": tfprotov6.SchemaNestedBlockNestingModeSingle,
		"list":   tfprotov6.SchemaNestedBlockNestingModeList,
		"set":    tfprotov6.SchemaNestedBlockNestingModeSet,
		"map":    tfprotov6.SchemaNestedBlockNestingModeMap,
		"group":  tfprotov6.SchemaNestedBlockNestingModeGroup,
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		inner, err := convertBlock(nb.Block)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		mode, ok := modes[nb.NestingMode]
		if !ok {
			return nil, fmt.Errorf("%s: unknown nesting mode %q", name, nb.NestingMode)
		}
		block.BlockTypes = append(block.BlockTypes, &tfprotov6.SchemaNestedBlock{
			TypeName: name, Block: inner, Nesting: mode, MinItems: nb.MinItems, MaxItems: nb.MaxItems,
		})
	}
	return block, nil
}

func convertSchemas(in map[string]json.RawMessage) (map[string]*tfprotov6.Schema, error) {
	out := make(map[string]*tfprotov6.Schema, len(in))
	for name, raw := range in {
		var s jsonSchema
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		block, err := convertBlock(s.Block)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = &tfprotov6.Schema{Version: s.Version, Block: block}
	}
	return out, nil
}

// schemaJSON returns the schema document: the file named by SCHEMA_PROVIDER_SCHEMA if set (plain
// or gzip-compressed JSON, e.g. a copy cut down to the types a configuration uses, which loads
// much faster), else the embedded one.
func schemaJSON() ([]byte, error) {
	data := schemaGz
	if path := os.Getenv("SCHEMA_PROVIDER_SCHEMA"); path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func loadSchema() (*tfprotov6.GetProviderSchemaResponse, error) {
	raw, err := schemaJSON()
	if err != nil {
		return nil, err
	}
	var parsed jsonSchemas
	if err := json.Unmarshal(raw, &parsed); err != nil {
		return nil, err
	}
	p, ok := parsed.ProviderSchemas[providerAddress]
	if !ok {
		return nil, fmt.Errorf("schema has no %s", providerAddress)
	}
	provider, err := convertBlock(p.Provider.Block)
	if err != nil {
		return nil, fmt.Errorf("provider: %w", err)
	}
	resources, err := convertSchemas(p.ResourceSchemas)
	if err != nil {
		return nil, err
	}
	dataSources, err := convertSchemas(p.DataSourceSchemas)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities:       &tfprotov6.ServerCapabilities{PlanDestroy: true},
		Provider:                 &tfprotov6.Schema{Version: p.Provider.Version, Block: provider},
		ResourceSchemas:          resources,
		DataSourceSchemas:        dataSources,
		Functions:                map[string]*tfprotov6.Function{},
		EphemeralResourceSchemas: map[string]*tfprotov6.Schema{},
	}, nil
}

// refusal is the answer to every call that would need the real provider.
func refusal(what string) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError,
		Summary:  "schema-only provider",
		Detail: what + " needs the real AWS provider; this one only serves its schema " +
			"(use it with mock_provider in terraform test, or terraform validate)",
	}}
}

type server struct {
	schema *tfprotov6.GetProviderSchemaResponse
}

func (s *server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp := &tfprotov6.GetMetadataResponse{ServerCapabilities: s.schema.ServerCapabilities}
	for _, name := range sortedKeys(s.schema.ResourceSchemas) {
		resp.Resources = append(resp.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	for _, name := range sortedKeys(s.schema.DataSourceSchemas) {
		resp.DataSources = append(resp.DataSources, tfprotov6.DataSourceMetadata{TypeName: name})
	}
	return resp, nil
}

func (s *server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return s.schema, nil
}

func (s *server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s *server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *server) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (s *server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (s *server) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if req.RawState == nil || req.RawState.JSON == nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: refusal("upgrading a flatmap state")}, nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &tfprotov6.DynamicValue{JSON: req.RawState.JSON}}, nil
}

func (s *server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private}, nil
}

func (s *server) PlanResourceChange(context.Context, *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return &tfprotov6.PlanResourceChangeResponse{Diagnostics: refusal("planning a resource")}, nil
}

func (s *server) ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: refusal("applying a resource")}, nil
}

func (s *server) ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return &tfprotov6.ImportResourceStateResponse{Diagnostics: refusal("importing a resource")}, nil
}

func (s *server) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: refusal("moving a resource")}, nil
}

func (s *server) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: refusal("upgrading a resource identity")}, nil
}

func (s *server) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return &tfprotov6.GenerateResourceConfigResponse{Diagnostics: refusal("generating configuration")}, nil
}

func (s *server) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (s *server) ReadDataSource(context.Context, *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return &tfprotov6.ReadDataSourceResponse{Diagnostics: refusal("reading a data source")}, nil
}

func (s *server) CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: "schema-only provider: no functions"}}, nil
}

func (s *server) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{}}, nil
}

func (s *server) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

func (s *server) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Diagnostics: refusal("opening an ephemeral resource")}, nil
}

func (s *server) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{}, nil
}

func (s *server) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{}, nil
}

func main() {
	schema, err := loadSchema()
	if err != nil {
		log.Fatalf("loading the embedded schema: %v", err)
	}
	if err := tf6server.Serve(providerAddress, func() tfprotov6.ProviderServer { return &server{schema: schema} }); err != nil {
		log.Fatal(err)
	}
}
